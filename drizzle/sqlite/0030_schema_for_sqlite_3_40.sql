-- Debian 12's sqlite3 (3.40) must read the database, so the schema keeps to what it
-- parses and computes:
-- * uploads.tag_ids' three triggers ordered their group_concat with
--   `group_concat(x, ',' ORDER BY y)` (3.44 on): the command refused the whole schema.
--   They now aggregate a subquery in position order (SQLite does not flatten an ordered
--   subquery into an aggregate, so group_concat sees the rows in that order).
-- * hot_score read created_at through unixepoch(x, 'subsec') (3.42 on): older SQLite
--   computes NULL there and finds the hot index wrong. The new expression gives the same
--   value (whole milliseconds divided once), so the kept copies in upload_tags stay right.
--   The column's index and the two triggers that read it go while it is rebuilt.
DROP TRIGGER `upload_tags_tag_ids_insert`;
--> statement-breakpoint
DROP TRIGGER `upload_tags_tag_ids_delete`;
--> statement-breakpoint
DROP TRIGGER `upload_tags_tag_ids_update`;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_insert` AFTER INSERT ON `upload_tags`
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',') FROM (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = NEW.`upload_id` ORDER BY `position`)), '')
    WHERE `id` = NEW.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_delete` AFTER DELETE ON `upload_tags`
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',') FROM (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = OLD.`upload_id` ORDER BY `position`)), '')
    WHERE `id` = OLD.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_update` AFTER UPDATE OF `upload_id`, `tag_id`, `position` ON `upload_tags`
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',') FROM (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = `uploads`.`id` ORDER BY `position`)), '')
    WHERE `id` IN (OLD.`upload_id`, NEW.`upload_id`);
END;
--> statement-breakpoint
DROP TRIGGER `upload_tags_upload_order_insert`;
--> statement-breakpoint
DROP TRIGGER `uploads_tag_order_update`;
--> statement-breakpoint
DROP INDEX `uploads_public_hot_idx`;
--> statement-breakpoint
ALTER TABLE `uploads` DROP COLUMN `hot_score`;
--> statement-breakpoint
ALTER TABLE `uploads` ADD `hot_score` real GENERATED ALWAYS AS (sign(CAST(upvotes - downvote_count AS double precision))
  * log10(CAST(CASE WHEN abs(upvotes - downvote_count) > 1 THEN abs(upvotes - downvote_count) ELSE 1 END AS double precision))
  + (((CAST(strftime('%s', created_at) AS INTEGER) * 1000 + CAST(substr(created_at, 21, 3) AS INTEGER)) / 1000.0) - 1700000000) / 45000) VIRTUAL;
--> statement-breakpoint
CREATE INDEX `uploads_public_hot_idx` ON `uploads` ("hot_score" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;
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
CREATE TRIGGER `uploads_tag_order_update` AFTER UPDATE OF `is_private`, `created_at`, `upvotes`, `downvote_count` ON `uploads`
  WHEN OLD.`is_private` IS NOT NEW.`is_private` OR OLD.`created_at` IS NOT NEW.`created_at`
    OR OLD.`upvotes` IS NOT NEW.`upvotes` OR OLD.`downvote_count` IS NOT NEW.`downvote_count`
BEGIN
  UPDATE `upload_tags` SET `upload_created_at` = NEW.`created_at`, `upload_is_private` = NEW.`is_private`,
    `upload_upvotes` = NEW.`upvotes`, `upload_downvote_count` = NEW.`downvote_count`,
    `upload_hot_score` = NEW.`hot_score`, `upload_best_score` = NEW.`best_score`, `upload_divisive_score` = NEW.`divisive_score`
    WHERE `upload_id` = NEW.`id`;
END;
