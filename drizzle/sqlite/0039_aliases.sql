CREATE TABLE `tag_aliases` (
	`slug` text PRIMARY KEY NOT NULL,
	`tag_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tag_aliases_tag_idx` ON `tag_aliases` (`tag_id`);--> statement-breakpoint
CREATE TABLE `tag_implications` (
	`tag_id` text NOT NULL,
	`implied_tag_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`tag_id`, `implied_tag_id`),
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`implied_tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tag_implications_implied_idx` ON `tag_implications` (`implied_tag_id`,`tag_id`);