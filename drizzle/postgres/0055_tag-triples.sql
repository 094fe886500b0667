-- tag_triples: public uploads carrying all three tags of a triple, kept only for the
-- triples a search of `(a OR b) c` has asked for (server/services/lists/triples.ts adds a
-- row with its first count, holding upload_tags in SHARE mode while it counts; none exist
-- after this migration). Kept like tag_pairs, by the same five changes, each written in
-- key order (INSERT ... ON CONFLICT), so two statements that touch the same rows lock them
-- alike. Every function runs holding upload_tags in ROW EXCLUSIVE mode (the triggers on
-- upload_tags hold it already; those on uploads take it first), so a count being taken
-- either waits for the change to commit or the change waits for the count's row, and
-- then reads it: no change falls between the two.
CREATE TABLE "tag_triples" (
	"first_tag_id" text NOT NULL,
	"second_tag_id" text NOT NULL,
	"third_tag_id" text NOT NULL,
	"public_uploads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tag_triples_first_tag_id_second_tag_id_third_tag_id_pk" PRIMARY KEY("first_tag_id","second_tag_id","third_tag_id")
);
--> statement-breakpoint
CREATE INDEX "tag_triples_second_idx" ON "tag_triples" USING btree ("second_tag_id");--> statement-breakpoint
CREATE INDEX "tag_triples_third_idx" ON "tag_triples" USING btree ("third_tag_id");--> statement-breakpoint
CREATE FUNCTION "upload_tags_tag_triples"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most statements touch no kept triple: one probe per link says so.
  IF NOT EXISTS (SELECT 1 FROM "changed" c JOIN "tag_triples" t
      ON t."first_tag_id" = c."tag_id" OR t."second_tag_id" = c."tag_id" OR t."third_tag_id" = c."tag_id") THEN
    RETURN NULL;
  END IF;
  -- Each public upload's kept triples among its links and the statement's: those with at
  -- least one link of the statement (after an insert the links hold them, after a delete not).
  WITH "touched" AS (SELECT DISTINCT "upload_id" FROM "changed"),
  "links" AS (
    SELECT ut."upload_id", ut."tag_id", false AS "in_statement" FROM "touched" t
      JOIN "upload_tags" ut ON ut."upload_id" = t."upload_id"
      WHERE NOT EXISTS (SELECT 1 FROM "changed" c WHERE c."upload_id" = ut."upload_id" AND c."tag_id" = ut."tag_id")
    UNION ALL SELECT "upload_id", "tag_id", true FROM "changed"
  )
  INSERT INTO "tag_triples" ("first_tag_id", "second_tag_id", "third_tag_id", "public_uploads")
    SELECT k."first_tag_id", k."second_tag_id", k."third_tag_id", (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END) * count(*)
      FROM "links" a
      JOIN "tag_triples" k ON k."first_tag_id" = a."tag_id"
      JOIN "links" b ON b."upload_id" = a."upload_id" AND b."tag_id" = k."second_tag_id"
      JOIN "links" c ON c."upload_id" = a."upload_id" AND c."tag_id" = k."third_tag_id"
      JOIN "uploads" u ON u."id" = a."upload_id" AND u."is_private" = 0
      WHERE a."in_statement" OR b."in_statement" OR c."in_statement"
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("first_tag_id", "second_tag_id", "third_tag_id") DO UPDATE SET "public_uploads" = "tag_triples"."public_uploads" + excluded."public_uploads";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_triples_insert" AFTER INSERT ON "upload_tags" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "upload_tags_tag_triples"();
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_triples_delete" AFTER DELETE ON "upload_tags" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "upload_tags_tag_triples"();
--> statement-breakpoint
CREATE FUNCTION "upload_tags_tag_triples_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "tag_triples" ("first_tag_id", "second_tag_id", "third_tag_id", "public_uploads")
    SELECT d."first_tag_id", d."second_tag_id", d."third_tag_id", sum(d."delta") FROM (
      SELECT k."first_tag_id", k."second_tag_id", k."third_tag_id", -1 AS "delta" FROM "tag_triples" k
        WHERE OLD."tag_id" IN (k."first_tag_id", k."second_tag_id", k."third_tag_id")
          AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = OLD."upload_id" AND "is_private" = 0)
          AND (SELECT count(*) FROM "upload_tags" o WHERE o."upload_id" = OLD."upload_id" AND o."tag_id" <> OLD."tag_id"
            AND o."tag_id" IN (k."first_tag_id", k."second_tag_id", k."third_tag_id")) = 2
      UNION ALL
      SELECT k."first_tag_id", k."second_tag_id", k."third_tag_id", 1 FROM "tag_triples" k
        WHERE NEW."tag_id" IN (k."first_tag_id", k."second_tag_id", k."third_tag_id")
          AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = NEW."upload_id" AND "is_private" = 0)
          AND (SELECT count(*) FROM "upload_tags" o WHERE o."upload_id" = NEW."upload_id" AND o."tag_id" <> NEW."tag_id"
            AND NOT (o."upload_id" = OLD."upload_id" AND o."tag_id" = OLD."tag_id")
            AND o."tag_id" IN (k."first_tag_id", k."second_tag_id", k."third_tag_id")) = 2
    ) d GROUP BY 1, 2, 3 HAVING sum(d."delta") <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("first_tag_id", "second_tag_id", "third_tag_id") DO UPDATE SET "public_uploads" = "tag_triples"."public_uploads" + excluded."public_uploads";
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_triples_move" BEFORE UPDATE OF "upload_id", "tag_id" ON "upload_tags" FOR EACH ROW
  WHEN (OLD."tag_id" IS DISTINCT FROM NEW."tag_id" OR OLD."upload_id" IS DISTINCT FROM NEW."upload_id") EXECUTE FUNCTION "upload_tags_tag_triples_move"();
--> statement-breakpoint
CREATE FUNCTION "uploads_tag_triples"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "upload" text := CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END;
  "delta" integer := CASE WHEN TG_OP = 'UPDATE' AND NEW."is_private" = 0 THEN 1 ELSE -1 END;
BEGIN
  IF TG_OP = 'DELETE' AND OLD."is_private" = 0 OR TG_OP = 'UPDATE' AND OLD."is_private" <> NEW."is_private" THEN
    -- Before reading the kept triples: a triple being counted holds this lock's opposite.
    LOCK TABLE "upload_tags" IN ROW EXCLUSIVE MODE;
    INSERT INTO "tag_triples" ("first_tag_id", "second_tag_id", "third_tag_id", "public_uploads")
      SELECT k."first_tag_id", k."second_tag_id", k."third_tag_id", "delta" FROM "upload_tags" a
        JOIN "tag_triples" k ON k."first_tag_id" = a."tag_id"
        WHERE a."upload_id" = "upload"
          AND EXISTS (SELECT 1 FROM "upload_tags" b WHERE b."upload_id" = "upload" AND b."tag_id" = k."second_tag_id")
          AND EXISTS (SELECT 1 FROM "upload_tags" c WHERE c."upload_id" = "upload" AND c."tag_id" = k."third_tag_id")
        ORDER BY 1, 2, 3
      ON CONFLICT ("first_tag_id", "second_tag_id", "third_tag_id") DO UPDATE SET "public_uploads" = "tag_triples"."public_uploads" + excluded."public_uploads";
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_tag_triples_delete" BEFORE DELETE ON "uploads" FOR EACH ROW EXECUTE FUNCTION "uploads_tag_triples"();
--> statement-breakpoint
CREATE TRIGGER "uploads_tag_triples_privacy" AFTER UPDATE OF "is_private" ON "uploads" FOR EACH ROW EXECUTE FUNCTION "uploads_tag_triples"();
