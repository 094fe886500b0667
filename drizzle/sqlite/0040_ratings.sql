ALTER TABLE `uploads` ADD `rating` text DEFAULT 'safe' NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_public_rating_newest_idx` ON `uploads` (`rating`,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
ALTER TABLE `users` ADD `rating_explicit` text DEFAULT 'blur' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `rating_suggestive` text DEFAULT 'show' NOT NULL;