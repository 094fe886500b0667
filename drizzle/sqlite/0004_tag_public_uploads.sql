ALTER TABLE `tags` ADD `public_uploads` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `tags_public_uploads_idx` ON `tags` (`public_uploads`);