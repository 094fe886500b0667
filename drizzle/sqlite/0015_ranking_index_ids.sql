DROP INDEX `uploads_public_top_idx`;--> statement-breakpoint
DROP INDEX `uploads_public_hot_idx`;--> statement-breakpoint
DROP INDEX `uploads_public_best_idx`;--> statement-breakpoint
DROP INDEX `uploads_public_divisive_idx`;--> statement-breakpoint
CREATE INDEX `uploads_public_top_idx` ON `uploads` ("upvotes" desc,"downvote_count" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX `uploads_public_hot_idx` ON `uploads` ("hot_score" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX `uploads_public_best_idx` ON `uploads` ("best_score" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX `uploads_public_divisive_idx` ON `uploads` ("divisive_score" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;