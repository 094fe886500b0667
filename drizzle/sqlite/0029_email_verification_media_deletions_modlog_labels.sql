CREATE TABLE `email_verification_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_verification_tokens_hash_unique` ON `email_verification_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_verification_tokens_user_idx` ON `email_verification_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `media_deletions` (
	`upload_id` text PRIMARY KEY NOT NULL,
	`filename` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `media_deletions_next_attempt_idx` ON `media_deletions` (`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `moderation_log` ADD `actor_username` text;--> statement-breakpoint
ALTER TABLE `moderation_log` ADD `target_label` text;--> statement-breakpoint
ALTER TABLE `users` ADD `email_verified` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE users SET email_verified = 1 WHERE EXISTS (SELECT 1 FROM oauth_accounts o WHERE o.user_id = users.id AND lower(o.email) = users.email);--> statement-breakpoint
UPDATE moderation_log SET actor_username = (SELECT u.username FROM users u WHERE u.id = moderation_log.actor_id) WHERE actor_id IS NOT NULL;--> statement-breakpoint
UPDATE moderation_log SET target_label = CASE target_type
  WHEN 'user' THEN (SELECT u.username FROM users u WHERE u.id = moderation_log.target_id)
  WHEN 'upload' THEN (SELECT substr(p.description, 1, 80) FROM uploads p WHERE p.id = moderation_log.target_id)
  WHEN 'report' THEN (SELECT r.reason FROM reports r WHERE r.id = moderation_log.target_id)
END;
