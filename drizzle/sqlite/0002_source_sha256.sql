ALTER TABLE `uploads` ADD `source_sha256` text;--> statement-breakpoint
CREATE INDEX `uploads_source_sha256_idx` ON `uploads` (`source_sha256`);