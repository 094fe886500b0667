CREATE TABLE `duel_judgements` (
	`id` text PRIMARY KEY NOT NULL,
	`low_id` text NOT NULL,
	`high_id` text NOT NULL,
	`user_id` text,
	`fingerprint` text,
	`ip_hash` text,
	`winner` text NOT NULL,
	`counted` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`low_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`high_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `duel_judgements_user_pair_unique` ON `duel_judgements` (`user_id`,`low_id`,`high_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `duel_judgements_fingerprint_pair_unique` ON `duel_judgements` (`fingerprint`,`low_id`,`high_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `duel_judgements_ip_pair_unique` ON `duel_judgements` (`ip_hash`,`low_id`,`high_id`);--> statement-breakpoint
CREATE INDEX `duel_judgements_low_idx` ON `duel_judgements` (`low_id`);--> statement-breakpoint
CREATE INDEX `duel_judgements_high_idx` ON `duel_judgements` (`high_id`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `duel_strength` real DEFAULT 1500 NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `duel_wins` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `duel_losses` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_duel_pool_idx` ON `uploads` (`duel_strength`,`id`) WHERE "uploads"."is_private" = 0 AND "uploads"."upload_type" = 'image';--> statement-breakpoint
CREATE INDEX `uploads_duel_ranked_idx` ON `uploads` ("duel_strength" desc,"id" desc) WHERE "uploads"."is_private" = 0 AND "uploads"."upload_type" = 'image' AND "uploads"."duel_wins" + "uploads"."duel_losses" >= 5;