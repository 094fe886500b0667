-- A new link that comes with its upload's rank copies is written once. The copies were
-- always filled in after the insert, so every link went into the five per-tag ranking
-- indexes under empty values (it counted as public) and moved to its place right after:
-- two entries written per index instead of one, each on its own page. The site's inserts
-- now copy the values in (server/services/upload-tags.ts, linkTags); an insert that does
-- not still gets them here.
DROP TRIGGER `upload_tags_upload_order_insert`;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_upload_order_insert` AFTER INSERT ON `upload_tags`
WHEN NEW.`upload_created_at` = ''
BEGIN
  UPDATE `upload_tags` SET (`upload_created_at`, `upload_is_private`, `upload_upvotes`, `upload_downvote_count`,
      `upload_hot_score`, `upload_best_score`, `upload_divisive_score`) =
    (SELECT `created_at`, `is_private`, `upvotes`, `downvote_count`, `hot_score`, `best_score`, `divisive_score`
      FROM `uploads` WHERE `id` = NEW.`upload_id`)
    WHERE `upload_id` = NEW.`upload_id` AND `tag_id` = NEW.`tag_id`;
END;
