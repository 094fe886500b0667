-- tag_pairs.public_uploads: how many public uploads carry both tags of each pair, kept by
-- triggers like tags.public_uploads, so every path that links or unlinks a tag, deletes
-- an upload or changes its privacy keeps it right. A cascade from a deleted upload finds
-- the upload gone, so only the upload's own trigger counts it. The links' trigger runs
-- once a statement over the links it wrote or removed: a row trigger runs after the whole
-- statement on PostgreSQL, so two links of one statement would each count their pair.
-- Pairs are written in key order, so two transactions never wait for each other's in turn.
INSERT INTO "tag_pairs" ("first_tag_id", "second_tag_id", "public_uploads")
  SELECT a."tag_id", b."tag_id", count(*) FROM "upload_tags" a
    JOIN "upload_tags" b ON b."upload_id" = a."upload_id" AND b."tag_id" > a."tag_id"
    JOIN "uploads" u ON u."id" = a."upload_id" AND u."is_private" = 0
  GROUP BY a."tag_id", b."tag_id";
--> statement-breakpoint
CREATE FUNCTION "upload_tags_tag_pairs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each public upload's pairs among its links and the statement's: those with at least
  -- one link of the statement (after an insert the links hold them, after a delete not).
  WITH "touched" AS (SELECT DISTINCT "upload_id" FROM "changed"),
  "links" AS (
    SELECT ut."upload_id", ut."tag_id", false AS "in_statement" FROM "touched" t
      JOIN "upload_tags" ut ON ut."upload_id" = t."upload_id"
      WHERE NOT EXISTS (SELECT 1 FROM "changed" c WHERE c."upload_id" = ut."upload_id" AND c."tag_id" = ut."tag_id")
    UNION ALL SELECT "upload_id", "tag_id", true FROM "changed"
  )
  INSERT INTO "tag_pairs" ("first_tag_id", "second_tag_id", "public_uploads")
    SELECT a."tag_id", b."tag_id", (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END) * count(*) FROM "links" a
      JOIN "links" b ON b."upload_id" = a."upload_id" AND b."tag_id" > a."tag_id"
      JOIN "uploads" u ON u."id" = a."upload_id" AND u."is_private" = 0
      WHERE a."in_statement" OR b."in_statement"
      GROUP BY a."tag_id", b."tag_id" ORDER BY a."tag_id", b."tag_id"
    ON CONFLICT ("first_tag_id", "second_tag_id") DO UPDATE SET "public_uploads" = "tag_pairs"."public_uploads" + excluded."public_uploads";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_pairs_insert" AFTER INSERT ON "upload_tags"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "upload_tags_tag_pairs"();
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_pairs_delete" AFTER DELETE ON "upload_tags"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "upload_tags_tag_pairs"();
--> statement-breakpoint
CREATE FUNCTION "uploads_tag_pairs"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "upload" text := CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END;
  "delta" integer := CASE WHEN TG_OP = 'UPDATE' AND NEW."is_private" = 0 THEN 1 ELSE -1 END;
BEGIN
  IF TG_OP = 'DELETE' AND OLD."is_private" = 0 OR TG_OP = 'UPDATE' AND OLD."is_private" <> NEW."is_private" THEN
    INSERT INTO "tag_pairs" ("first_tag_id", "second_tag_id", "public_uploads")
      SELECT a."tag_id", b."tag_id", "delta" FROM "upload_tags" a
        JOIN "upload_tags" b ON b."upload_id" = a."upload_id" AND b."tag_id" > a."tag_id"
        WHERE a."upload_id" = "upload" ORDER BY a."tag_id", b."tag_id"
      ON CONFLICT ("first_tag_id", "second_tag_id") DO UPDATE SET "public_uploads" = "tag_pairs"."public_uploads" + excluded."public_uploads";
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_tag_pairs_delete" BEFORE DELETE ON "uploads"
  FOR EACH ROW EXECUTE FUNCTION "uploads_tag_pairs"();
--> statement-breakpoint
CREATE TRIGGER "uploads_tag_pairs_privacy" AFTER UPDATE OF "is_private" ON "uploads"
  FOR EACH ROW EXECUTE FUNCTION "uploads_tag_pairs"();
