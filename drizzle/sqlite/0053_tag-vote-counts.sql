-- tag_vote_counts: a tag's public links with votes per pair of counts their copies hold,
-- so a search of one tag with count tests (votes:>=10 a) sums the pairs that pass instead
-- of counting the tag's links. Kept by triggers on upload_tags alone: the links carry
-- their upload's privacy and counts as copies, and every change of those (a flush of
-- the rank copies, a privacy change, a link added, moved or deleted, an upload deleted
-- with its links) is a change of a link. WITHOUT ROWID: a count is one b-tree written.
CREATE TABLE `tag_vote_counts` (
	`tag_id` text NOT NULL,
	`upvotes` integer NOT NULL,
	`downvotes` integer NOT NULL,
	`links` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tag_id`, `upvotes`, `downvotes`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `tag_vote_counts` (`tag_id`, `upvotes`, `downvotes`, `links`)
  SELECT `tag_id`, `upload_upvotes`, `upload_downvote_count`, count(*) FROM `upload_tags`
    WHERE `upload_is_private` = 0 AND `upload_upvotes` + `upload_downvote_count` > 0
    GROUP BY `tag_id`, `upload_upvotes`, `upload_downvote_count` ORDER BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_vote_counts_insert` AFTER INSERT ON `upload_tags`
WHEN NEW.`upload_is_private` = 0 AND NEW.`upload_upvotes` + NEW.`upload_downvote_count` > 0
BEGIN
  INSERT INTO `tag_vote_counts` (`tag_id`, `upvotes`, `downvotes`, `links`)
    VALUES (NEW.`tag_id`, NEW.`upload_upvotes`, NEW.`upload_downvote_count`, 1)
    ON CONFLICT (`tag_id`, `upvotes`, `downvotes`) DO UPDATE SET `links` = `links` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_vote_counts_delete` AFTER DELETE ON `upload_tags`
WHEN OLD.`upload_is_private` = 0 AND OLD.`upload_upvotes` + OLD.`upload_downvote_count` > 0
BEGIN
  UPDATE `tag_vote_counts` SET `links` = `links` - 1
    WHERE `tag_id` = OLD.`tag_id` AND `upvotes` = OLD.`upload_upvotes` AND `downvotes` = OLD.`upload_downvote_count`;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_vote_counts_update` AFTER UPDATE OF `tag_id`, `upload_is_private`, `upload_upvotes`, `upload_downvote_count` ON `upload_tags`
WHEN (OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`upload_is_private` IS NOT NEW.`upload_is_private`
    OR OLD.`upload_upvotes` IS NOT NEW.`upload_upvotes` OR OLD.`upload_downvote_count` IS NOT NEW.`upload_downvote_count`)
  AND (OLD.`upload_is_private` = 0 AND OLD.`upload_upvotes` + OLD.`upload_downvote_count` > 0
    OR NEW.`upload_is_private` = 0 AND NEW.`upload_upvotes` + NEW.`upload_downvote_count` > 0)
BEGIN
  UPDATE `tag_vote_counts` SET `links` = `links` - 1
    WHERE OLD.`upload_is_private` = 0 AND OLD.`upload_upvotes` + OLD.`upload_downvote_count` > 0
      AND `tag_id` = OLD.`tag_id` AND `upvotes` = OLD.`upload_upvotes` AND `downvotes` = OLD.`upload_downvote_count`;
  INSERT INTO `tag_vote_counts` (`tag_id`, `upvotes`, `downvotes`, `links`)
    SELECT NEW.`tag_id`, NEW.`upload_upvotes`, NEW.`upload_downvote_count`, 1
      WHERE NEW.`upload_is_private` = 0 AND NEW.`upload_upvotes` + NEW.`upload_downvote_count` > 0
    ON CONFLICT (`tag_id`, `upvotes`, `downvotes`) DO UPDATE SET `links` = `links` + 1;
END;
