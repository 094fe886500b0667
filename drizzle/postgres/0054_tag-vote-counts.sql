-- tag_vote_counts: a tag's public links with votes per pair of counts their copies hold,
-- so a search of one tag with count tests (votes:>=10 a) sums the pairs that pass instead
-- of counting the tag's links. Kept by statement triggers on upload_tags alone (the links
-- carry their upload's privacy and counts as copies): each statement's links as they were
-- (-1) and as they are (+1), summed per row, written in key order, so two statements
-- that touch the same rows lock them alike. A row trigger would lock them in the order
-- of the links a flush of the rank copies writes. A tag's rows are written together (in
-- key order) and leave room on their pages (fillfactor 70), so a count changed stays on
-- its page (a HOT update) and a tag's total reads a few pages, not one page per row
-- (444 rows on 416 pages for one tag of the bench at 1,000,000 uploads, written unordered).
-- The schema (server/database/schema-postgres.ts) does not say the fillfactor.
CREATE TABLE "tag_vote_counts" (
	"tag_id" text NOT NULL,
	"upvotes" integer NOT NULL,
	"downvotes" integer NOT NULL,
	"links" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tag_vote_counts_tag_id_upvotes_downvotes_pk" PRIMARY KEY("tag_id","upvotes","downvotes")
) WITH (fillfactor = 70);
--> statement-breakpoint
INSERT INTO "tag_vote_counts" ("tag_id", "upvotes", "downvotes", "links")
  SELECT "tag_id", "upload_upvotes", "upload_downvote_count", count(*) FROM "upload_tags"
    WHERE "upload_is_private" = 0 AND "upload_upvotes" + "upload_downvote_count" > 0
    GROUP BY "tag_id", "upload_upvotes", "upload_downvote_count" ORDER BY 1, 2, 3;
--> statement-breakpoint
CREATE FUNCTION "upload_tags_vote_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "tag_vote_counts" ("tag_id", "upvotes", "downvotes", "links")
      SELECT "tag_id", "upload_upvotes", "upload_downvote_count", count(*) FROM "new_links"
        WHERE "upload_is_private" = 0 AND "upload_upvotes" + "upload_downvote_count" > 0
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("tag_id", "upvotes", "downvotes") DO UPDATE SET "links" = "tag_vote_counts"."links" + excluded."links";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "tag_vote_counts" ("tag_id", "upvotes", "downvotes", "links")
      SELECT "tag_id", "upload_upvotes", "upload_downvote_count", -count(*) FROM "old_links"
        WHERE "upload_is_private" = 0 AND "upload_upvotes" + "upload_downvote_count" > 0
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("tag_id", "upvotes", "downvotes") DO UPDATE SET "links" = "tag_vote_counts"."links" + excluded."links";
  ELSE
    INSERT INTO "tag_vote_counts" ("tag_id", "upvotes", "downvotes", "links")
      SELECT c."tag_id", c."upload_upvotes", c."upload_downvote_count", sum(c."delta") FROM (
        SELECT "tag_id", "upload_upvotes", "upload_downvote_count", -1 AS "delta" FROM "old_links"
          WHERE "upload_is_private" = 0 AND "upload_upvotes" + "upload_downvote_count" > 0
        UNION ALL
        SELECT "tag_id", "upload_upvotes", "upload_downvote_count", 1 FROM "new_links"
          WHERE "upload_is_private" = 0 AND "upload_upvotes" + "upload_downvote_count" > 0
      ) c GROUP BY 1, 2, 3 HAVING sum(c."delta") <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("tag_id", "upvotes", "downvotes") DO UPDATE SET "links" = "tag_vote_counts"."links" + excluded."links";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_vote_counts_insert" AFTER INSERT ON "upload_tags" REFERENCING NEW TABLE AS "new_links"
  FOR EACH STATEMENT EXECUTE FUNCTION "upload_tags_vote_counts"();
--> statement-breakpoint
CREATE TRIGGER "upload_tags_vote_counts_delete" AFTER DELETE ON "upload_tags" REFERENCING OLD TABLE AS "old_links"
  FOR EACH STATEMENT EXECUTE FUNCTION "upload_tags_vote_counts"();
--> statement-breakpoint
CREATE TRIGGER "upload_tags_vote_counts_update" AFTER UPDATE ON "upload_tags" REFERENCING OLD TABLE AS "old_links" NEW TABLE AS "new_links"
  FOR EACH STATEMENT EXECUTE FUNCTION "upload_tags_vote_counts"();
