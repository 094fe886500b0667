-- tag_pairs as a WITHOUT ROWID table: its rows live in the b-tree of its primary key, so a
-- pair counted is one b-tree written, not the table and its key's index. A link upload
-- counts a pair for every two of its tags (28 for eight tags), on pages no other upload
-- of its commit group shares: in process, 32 link uploads at a time on the bench's seed,
-- 936 -> 1,060 uploads a second (medians of three alternating rounds).
-- The table is copied out and back, not renamed: renaming would rewrite (or refuse)
-- the triggers that write it. The schema (server/database/schema.ts) cannot say
-- WITHOUT ROWID: a migration that rebuilds this table must keep it (docs/database.md).
CREATE TABLE `tag_pairs_copy` AS SELECT `first_tag_id`, `second_tag_id`, `public_uploads` FROM `tag_pairs`;
--> statement-breakpoint
DROP TABLE `tag_pairs`;
--> statement-breakpoint
CREATE TABLE `tag_pairs` (
	`first_tag_id` text NOT NULL,
	`second_tag_id` text NOT NULL,
	`public_uploads` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`first_tag_id`, `second_tag_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `tag_pairs` (`first_tag_id`, `second_tag_id`, `public_uploads`) SELECT `first_tag_id`, `second_tag_id`, `public_uploads` FROM `tag_pairs_copy`;
--> statement-breakpoint
DROP TABLE `tag_pairs_copy`;
