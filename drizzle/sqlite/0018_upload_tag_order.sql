ALTER TABLE `upload_tags` ADD `upload_created_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `upload_tags` ADD `upload_is_private` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `upload_tags_tag_newest_idx` ON `upload_tags` (`tag_id`,`upload_created_at`,`upload_id`) WHERE "upload_tags"."upload_is_private" = 0;