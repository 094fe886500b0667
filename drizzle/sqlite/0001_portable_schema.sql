CREATE TABLE `app_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
DROP INDEX `anonymous_votes_upload_ip_idx`;--> statement-breakpoint
DROP INDEX `anonymous_votes_upload_fingerprint_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `anonymous_votes_upload_ip_unique` ON `anonymous_votes` (`upload_id`,`ip_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `anonymous_votes_upload_fingerprint_unique` ON `anonymous_votes` (`upload_id`,`fingerprint`);--> statement-breakpoint
DROP INDEX `uploads_user_name_idx`;--> statement-breakpoint
CREATE INDEX `uploads_user_name_lower_idx` ON `uploads` (`user_id`,`is_private`,lower("original_name"));--> statement-breakpoint
DROP INDEX `users_username_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_lower_unique` ON `users` (lower("username"));--> statement-breakpoint
ALTER TABLE `upload_tags` ADD `position` integer DEFAULT 0 NOT NULL;