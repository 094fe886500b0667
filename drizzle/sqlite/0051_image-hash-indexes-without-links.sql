DROP INDEX `uploads_sha256_idx`;--> statement-breakpoint
DROP INDEX `uploads_source_sha256_idx`;--> statement-breakpoint
DROP INDEX `uploads_phash_band0_idx`;--> statement-breakpoint
DROP INDEX `uploads_phash_band1_idx`;--> statement-breakpoint
DROP INDEX `uploads_phash_band2_idx`;--> statement-breakpoint
DROP INDEX `uploads_phash_band3_idx`;--> statement-breakpoint
CREATE INDEX `uploads_sha256_idx` ON `uploads` (`sha256`) WHERE "uploads"."sha256" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_source_sha256_idx` ON `uploads` (`source_sha256`) WHERE "uploads"."source_sha256" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_phash_band0_idx` ON `uploads` (`phash_band0`) WHERE "uploads"."phash_band0" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_phash_band1_idx` ON `uploads` (`phash_band1`) WHERE "uploads"."phash_band1" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_phash_band2_idx` ON `uploads` (`phash_band2`) WHERE "uploads"."phash_band2" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_phash_band3_idx` ON `uploads` (`phash_band3`) WHERE "uploads"."phash_band3" IS NOT NULL;