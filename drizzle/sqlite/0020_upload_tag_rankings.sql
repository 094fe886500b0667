-- upload_tags' copies of its upload's counts and rankings (upload_upvotes …), so a tag's
-- public uploads in a ranking are one range of that ranking's index on upload_tags. The
-- copies are filled before the indexes are made: one build of each, not 4 indexes
-- rewritten per link (a million uploads' 2.5 million links). The triggers that keep them
-- are the next migration's.
ALTER TABLE `upload_tags` ADD `upload_upvotes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `upload_tags` ADD `upload_downvote_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `upload_tags` ADD `upload_hot_score` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `upload_tags` ADD `upload_best_score` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `upload_tags` ADD `upload_divisive_score` real DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `upload_tags` SET (`upload_upvotes`, `upload_downvote_count`, `upload_hot_score`, `upload_best_score`, `upload_divisive_score`) =
  (SELECT `upvotes`, `downvote_count`, `hot_score`, `best_score`, `divisive_score` FROM `uploads` WHERE `id` = `upload_tags`.`upload_id`);
--> statement-breakpoint
CREATE INDEX `upload_tags_tag_top_idx` ON `upload_tags` (`tag_id`,"upload_upvotes" desc,"upload_downvote_count" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;--> statement-breakpoint
CREATE INDEX `upload_tags_tag_hot_idx` ON `upload_tags` (`tag_id`,"upload_hot_score" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;--> statement-breakpoint
CREATE INDEX `upload_tags_tag_best_idx` ON `upload_tags` (`tag_id`,"upload_best_score" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;--> statement-breakpoint
CREATE INDEX `upload_tags_tag_divisive_idx` ON `upload_tags` (`tag_id`,"upload_divisive_score" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;