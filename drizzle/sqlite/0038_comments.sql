CREATE TABLE `comment_votes` (
	`comment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`value` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`comment_id`, `user_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comment_votes_user_idx` ON `comment_votes` (`user_id`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`upload_id` text NOT NULL,
	`author_id` text,
	`parent_id` text,
	`body` text NOT NULL,
	`html` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`edited_at` text,
	`deleted` integer DEFAULT 0 NOT NULL,
	`score` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`parent_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comments_upload_top_idx` ON `comments` (`upload_id`,`parent_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `comments_parent_idx` ON `comments` (`parent_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `comments_author_idx` ON `comments` (`author_id`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `comments` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- uploads.comments: the upload's comments anyone may see (not deleted, author not
-- shadow-banned), kept by triggers so every path that adds, deletes or hides one (posting,
-- deleting, a shadow ban, an account deleted) keeps it right. Each recounts the upload's
-- comments on comments_upload_top_idx. The table is new: every count starts at 0.
CREATE TRIGGER `comments_count_insert` AFTER INSERT ON `comments`
BEGIN
  UPDATE `uploads` SET `comments` = (SELECT count(*) FROM `comments` c WHERE c.`upload_id` = NEW.`upload_id` AND c.`deleted` = 0
    AND NOT EXISTS (SELECT 1 FROM `users` us WHERE us.`id` = c.`author_id` AND us.`shadow_banned` = 1)) WHERE `id` = NEW.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `comments_count_update` AFTER UPDATE OF `deleted`, `author_id` ON `comments`
BEGIN
  UPDATE `uploads` SET `comments` = (SELECT count(*) FROM `comments` c WHERE c.`upload_id` = NEW.`upload_id` AND c.`deleted` = 0
    AND NOT EXISTS (SELECT 1 FROM `users` us WHERE us.`id` = c.`author_id` AND us.`shadow_banned` = 1)) WHERE `id` = NEW.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `comments_count_delete` AFTER DELETE ON `comments`
BEGIN
  UPDATE `uploads` SET `comments` = (SELECT count(*) FROM `comments` c WHERE c.`upload_id` = OLD.`upload_id` AND c.`deleted` = 0
    AND NOT EXISTS (SELECT 1 FROM `users` us WHERE us.`id` = c.`author_id` AND us.`shadow_banned` = 1)) WHERE `id` = OLD.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_comments_count_shadow_ban` AFTER UPDATE OF `shadow_banned` ON `users` WHEN OLD.`shadow_banned` <> NEW.`shadow_banned`
BEGIN
  UPDATE `uploads` SET `comments` = (SELECT count(*) FROM `comments` c WHERE c.`upload_id` = `uploads`.`id` AND c.`deleted` = 0
    AND NOT EXISTS (SELECT 1 FROM `users` us WHERE us.`id` = c.`author_id` AND us.`shadow_banned` = 1))
  WHERE `id` IN (SELECT `upload_id` FROM `comments` WHERE `author_id` = NEW.`id`);
END;
