CREATE TABLE `rank_copies_pending` (
	`upload_id` text PRIMARY KEY NOT NULL
);

--> statement-breakpoint
-- A link's copies of its upload's date and privacy are written at once, as before, with
-- every other copy; a change of the counts alone (a vote) only marks the upload pending
-- (server/services/rank-copies.ts copies its counts before a tag's ranked page is read).
DROP TRIGGER `uploads_tag_order_update`;
--> statement-breakpoint
CREATE TRIGGER `uploads_tag_order_update` AFTER UPDATE OF `is_private`, `created_at` ON `uploads`
  WHEN OLD.`is_private` IS NOT NEW.`is_private` OR OLD.`created_at` IS NOT NEW.`created_at`
BEGIN
  UPDATE `upload_tags` SET `upload_created_at` = NEW.`created_at`, `upload_is_private` = NEW.`is_private`,
    `upload_upvotes` = NEW.`upvotes`, `upload_downvote_count` = NEW.`downvote_count`,
    `upload_hot_score` = NEW.`hot_score`, `upload_best_score` = NEW.`best_score`, `upload_divisive_score` = NEW.`divisive_score`
    WHERE `upload_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_rank_copies_pending` AFTER UPDATE OF `upvotes`, `downvote_count` ON `uploads`
  WHEN (OLD.`upvotes` IS NOT NEW.`upvotes` OR OLD.`downvote_count` IS NOT NEW.`downvote_count`)
    AND OLD.`is_private` IS NEW.`is_private` AND OLD.`created_at` IS NEW.`created_at` AND NEW.`tag_ids` <> ''
BEGIN
  INSERT OR IGNORE INTO `rank_copies_pending` (`upload_id`) VALUES (NEW.`id`);
END;
