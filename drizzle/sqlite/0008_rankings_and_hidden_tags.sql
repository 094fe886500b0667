CREATE TABLE `user_hidden_tags` (
	`user_id` text NOT NULL,
	`slug` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`user_id`, `slug`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `uploads` ADD `hot_score` real GENERATED ALWAYS AS (sign(CAST(upvotes - downvote_count AS double precision))
  * log10(CAST(CASE WHEN abs(upvotes - downvote_count) > 1 THEN abs(upvotes - downvote_count) ELSE 1 END AS double precision))
  + (unixepoch(created_at, 'subsec') - 1700000000) / 45000) VIRTUAL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `best_score` real GENERATED ALWAYS AS (CASE WHEN (upvotes + downvote_count) = 0 THEN 0 ELSE
  ((CAST(upvotes AS double precision) / (upvotes + downvote_count)) + 3.8416 / (2 * (upvotes + downvote_count)) - 1.96 * sqrt(((CAST(upvotes AS double precision) / (upvotes + downvote_count)) * (1 - (CAST(upvotes AS double precision) / (upvotes + downvote_count))) + 3.8416 / (4 * (upvotes + downvote_count))) / (upvotes + downvote_count))) / (1 + 3.8416 / (upvotes + downvote_count)) END) VIRTUAL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `divisive_score` real GENERATED ALWAYS AS (CASE WHEN upvotes = 0 OR downvote_count = 0 THEN 0 ELSE
  power(CAST((upvotes + downvote_count) AS double precision),
    CAST(CASE WHEN upvotes < downvote_count THEN upvotes ELSE downvote_count END AS double precision)
    / CASE WHEN upvotes < downvote_count THEN downvote_count ELSE upvotes END) END) VIRTUAL;--> statement-breakpoint
CREATE INDEX `uploads_public_hot_idx` ON `uploads` ("hot_score" desc,"created_at" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX `uploads_public_best_idx` ON `uploads` ("best_score" desc,"created_at" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX `uploads_public_divisive_idx` ON `uploads` ("divisive_score" desc,"created_at" desc) WHERE "uploads"."is_private" = 0;