CREATE TABLE `favourites` (
	`user_id` text NOT NULL,
	`upload_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`user_id`, `upload_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `favourites_user_newest_idx` ON `favourites` (`user_id`,`created_at`,`upload_id`);--> statement-breakpoint
CREATE INDEX `favourites_upload_idx` ON `favourites` (`upload_id`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `favourites` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_public_favourites_idx` ON `uploads` ("favourites" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX `uploads_public_day_favourites_idx` ON `uploads` (`created_day`,"favourites" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
ALTER TABLE `users` ADD `public_favourites` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- uploads.favourites: how many accounts favourited the upload, kept by triggers on favourites so
-- every path that adds or removes one (PUT/DELETE of the favourite, an account or an upload
-- deleted with its favourites) keeps it right. The table is new: every count starts at 0.
CREATE TRIGGER `favourites_count_insert` AFTER INSERT ON `favourites`
BEGIN
  UPDATE `uploads` SET `favourites` = `favourites` + 1 WHERE `id` = NEW.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `favourites_count_delete` AFTER DELETE ON `favourites`
BEGIN
  UPDATE `uploads` SET `favourites` = `favourites` - 1 WHERE `id` = OLD.`upload_id`;
END;
