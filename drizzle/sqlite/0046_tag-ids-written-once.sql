-- As PostgreSQL's migration 0047: a new upload is inserted with its tag_ids already in
-- place, yet each of its links rewrote the row with the same ids, read back from every
-- link so far. A link inserted whose id the row already lists, or deleted whose id it no
-- longer lists (or whose upload is gone), was written by its writer, and the trigger now
-- does not run. 32 link uploads at once through the service, three runs alternating:
-- the links' inserts 743-776 -> 650-712 µs an upload, 1.60-1.86 -> 1.57-1.77 ms in all.
DROP TRIGGER `upload_tags_tag_ids_insert`;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_insert` AFTER INSERT ON `upload_tags`
WHEN instr(',' || (SELECT `tag_ids` FROM `uploads` WHERE `id` = NEW.`upload_id`) || ',', ',' || NEW.`tag_id` || ',') = 0
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',') FROM (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = NEW.`upload_id` ORDER BY `position`)), '')
    WHERE `id` = NEW.`upload_id`;
END;
--> statement-breakpoint
DROP TRIGGER `upload_tags_tag_ids_delete`;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_delete` AFTER DELETE ON `upload_tags`
WHEN instr(',' || (SELECT `tag_ids` FROM `uploads` WHERE `id` = OLD.`upload_id`) || ',', ',' || OLD.`tag_id` || ',') > 0
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',') FROM (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = OLD.`upload_id` ORDER BY `position`)), '')
    WHERE `id` = OLD.`upload_id`;
END;
