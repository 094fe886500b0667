-- A link can move to another tag (an UPDATE of its tag_id): an edit that swaps a tag moves
-- a link instead of deleting one and inserting another, so the upload's row is written
-- once (docs/database.md, "Kept counts"). The counts follow a move as they follow a
-- delete and an insert.
--
-- tags.public_uploads: one less for the old tag, one more for the new, each when its
-- upload is public. The edit has taken both tag rows already, in slug order.
CREATE OR REPLACE FUNCTION "upload_tags_public_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "tags" SET "public_uploads" = "public_uploads" - 1
      WHERE "id" = OLD."tag_id" AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = OLD."upload_id" AND "is_private" = 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "tags" SET "public_uploads" = "public_uploads" + 1
      WHERE "id" = NEW."tag_id" AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = NEW."upload_id" AND "is_private" = 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_public_count_move" AFTER UPDATE OF "upload_id", "tag_id" ON "upload_tags" FOR EACH ROW
  WHEN (OLD."tag_id" IS DISTINCT FROM NEW."tag_id" OR OLD."upload_id" IS DISTINCT FROM NEW."upload_id")
  EXECUTE FUNCTION "upload_tags_public_count"();
--> statement-breakpoint
-- tag_pairs.public_uploads: the moved link's pairs with the upload's other links lose one
-- under the old tag and gain one under the new, in one upsert in pair order. It runs
-- BEFORE the row changes, so it sees the links as the rows moved before it in the same
-- statement left them (as a SQLite row trigger does): a statement that moves several
-- links of one upload counts each pair once.
CREATE FUNCTION "upload_tags_tag_pairs_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "tag_pairs" ("first_tag_id", "second_tag_id", "public_uploads")
    SELECT d."first_tag_id", d."second_tag_id", sum(d."delta") FROM (
      SELECT least(OLD."tag_id", o."tag_id") AS "first_tag_id", greatest(OLD."tag_id", o."tag_id") AS "second_tag_id", -1 AS "delta"
        FROM "upload_tags" o
        WHERE o."upload_id" = OLD."upload_id" AND o."tag_id" <> OLD."tag_id"
          AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = OLD."upload_id" AND "is_private" = 0)
      UNION ALL
      SELECT least(NEW."tag_id", o."tag_id"), greatest(NEW."tag_id", o."tag_id"), 1
        FROM "upload_tags" o
        WHERE o."upload_id" = NEW."upload_id" AND NOT (o."upload_id" = OLD."upload_id" AND o."tag_id" = OLD."tag_id") AND o."tag_id" <> NEW."tag_id"
          AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = NEW."upload_id" AND "is_private" = 0)
    ) d GROUP BY d."first_tag_id", d."second_tag_id" HAVING sum(d."delta") <> 0 ORDER BY d."first_tag_id", d."second_tag_id"
    ON CONFLICT ("first_tag_id", "second_tag_id") DO UPDATE SET "public_uploads" = "tag_pairs"."public_uploads" + excluded."public_uploads";
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_pairs_move" BEFORE UPDATE OF "upload_id", "tag_id" ON "upload_tags" FOR EACH ROW
  WHEN (OLD."tag_id" IS DISTINCT FROM NEW."tag_id" OR OLD."upload_id" IS DISTINCT FROM NEW."upload_id")
  EXECUTE FUNCTION "upload_tags_tag_pairs_move"();
