CREATE TABLE "report_groups" (
	"upload_id" text NOT NULL,
	"status" text NOT NULL,
	"reason_rank" integer NOT NULL,
	"report_count" integer NOT NULL,
	"first_at" text NOT NULL,
	CONSTRAINT "report_groups_upload_id_status_pk" PRIMARY KEY("upload_id","status")
);
--> statement-breakpoint
ALTER TABLE "report_groups" ADD CONSTRAINT "report_groups_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_groups_queue_idx" ON "report_groups" USING btree ("status","reason_rank","first_at","upload_id");--> statement-breakpoint
-- report_groups: one row per reported upload and report status (how many reports, the rank of
-- the gravest reason: 0 minor_safety, 1 illegal, 2 harassment, 3 copyright, 4 spam, 5 other,
-- and when the first came in), kept by triggers on reports so every path that files, claims,
-- resolves or deletes a report (an upload or account deleted with its reports) keeps it right.
-- A report joining a group adds to its row in one upsert; a report leaving one recounts the
-- group from its reports (a few rows on the status and upload index) and drops the row once
-- it is empty.
-- On PostgreSQL the recount first locks the group's row, in a statement of its own, so that
-- the recount's snapshot, taken after the wait, sees every report committed under that lock;
-- a report joining waits on the same row in its upsert. The upload row comes before its
-- groups (a report's foreign key check, an upload's removal), and a report moving between
-- groups takes the group it joins before the one it leaves.
INSERT INTO "report_groups" ("upload_id", "status", "reason_rank", "report_count", "first_at")
  SELECT r."upload_id", r."status", min(CASE r."reason" WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r."created_at") FROM "reports" r GROUP BY r."upload_id", r."status";
--> statement-breakpoint
CREATE FUNCTION "reports_group"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "report_groups" ("upload_id", "status", "reason_rank", "report_count", "first_at")
      VALUES (NEW."upload_id", NEW."status", CASE NEW."reason" WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END, 1, NEW."created_at")
      ON CONFLICT ("upload_id", "status") DO UPDATE SET "reason_rank" = least("report_groups"."reason_rank", excluded."reason_rank"),
        "report_count" = "report_groups"."report_count" + 1, "first_at" = least("report_groups"."first_at", excluded."first_at");
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM 1 FROM "report_groups" WHERE "upload_id" = OLD."upload_id" AND "status" = OLD."status" FOR UPDATE;
    IF FOUND THEN
      DELETE FROM "report_groups" WHERE "upload_id" = OLD."upload_id" AND "status" = OLD."status"
        AND NOT EXISTS (SELECT 1 FROM "reports" r WHERE r."upload_id" = OLD."upload_id" AND r."status" = OLD."status");
      UPDATE "report_groups" SET ("reason_rank", "report_count", "first_at") = (SELECT min(CASE r."reason" WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r."created_at")
          FROM "reports" r WHERE r."upload_id" = OLD."upload_id" AND r."status" = OLD."status")
        WHERE "upload_id" = OLD."upload_id" AND "status" = OLD."status";
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "reports_group" AFTER INSERT OR DELETE ON "reports"
  FOR EACH ROW EXECUTE FUNCTION "reports_group"();
--> statement-breakpoint
CREATE TRIGGER "reports_group_move" AFTER UPDATE OF "upload_id", "status", "reason", "created_at" ON "reports"
  FOR EACH ROW WHEN (OLD."upload_id" IS DISTINCT FROM NEW."upload_id" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."reason" IS DISTINCT FROM NEW."reason" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "reports_group"();
