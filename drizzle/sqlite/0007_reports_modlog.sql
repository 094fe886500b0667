CREATE TABLE `moderation_log` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `moderation_log_newest_idx` ON `moderation_log` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` text PRIMARY KEY NOT NULL,
	`upload_id` text NOT NULL,
	`reporter_id` text,
	`ip_hash` text,
	`fingerprint` text,
	`reason` text NOT NULL,
	`details` text,
	`status` text DEFAULT 'open' NOT NULL,
	`claimed_by` text,
	`resolution` text,
	`resolved_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`claimed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_reporter_unique` ON `reports` (`upload_id`,`reporter_id`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_ip_unique` ON `reports` (`upload_id`,`ip_hash`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_fingerprint_unique` ON `reports` (`upload_id`,`fingerprint`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX `reports_status_upload_idx` ON `reports` (`status`,`upload_id`);--> statement-breakpoint
CREATE INDEX `reports_reporter_idx` ON `reports` (`reporter_id`);