-- The triggers that keep upload_tags' copies of its upload's date and privacy (0019)
-- keep its counts and rankings too, so every path that links a tag or moves an upload's
-- counts (a vote, a recount, a seeded row) keeps them right.
DROP TRIGGER `upload_tags_upload_order_insert`;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_upload_order_insert` AFTER INSERT ON `upload_tags`
BEGIN
  UPDATE `upload_tags` SET (`upload_created_at`, `upload_is_private`, `upload_upvotes`, `upload_downvote_count`,
      `upload_hot_score`, `upload_best_score`, `upload_divisive_score`) =
    (SELECT `created_at`, `is_private`, `upvotes`, `downvote_count`, `hot_score`, `best_score`, `divisive_score`
      FROM `uploads` WHERE `id` = NEW.`upload_id`)
    WHERE `upload_id` = NEW.`upload_id` AND `tag_id` = NEW.`tag_id`;
END;
--> statement-breakpoint
DROP TRIGGER `uploads_tag_order_update`;
--> statement-breakpoint
CREATE TRIGGER `uploads_tag_order_update` AFTER UPDATE OF `is_private`, `created_at`, `upvotes`, `downvote_count` ON `uploads`
  WHEN OLD.`is_private` IS NOT NEW.`is_private` OR OLD.`created_at` IS NOT NEW.`created_at`
    OR OLD.`upvotes` IS NOT NEW.`upvotes` OR OLD.`downvote_count` IS NOT NEW.`downvote_count`
BEGIN
  UPDATE `upload_tags` SET `upload_created_at` = NEW.`created_at`, `upload_is_private` = NEW.`is_private`,
    `upload_upvotes` = NEW.`upvotes`, `upload_downvote_count` = NEW.`downvote_count`,
    `upload_hot_score` = NEW.`hot_score`, `upload_best_score` = NEW.`best_score`, `upload_divisive_score` = NEW.`divisive_score`
    WHERE `upload_id` = NEW.`id`;
END;
