CREATE TABLE "upload_months" (
	"month" text PRIMARY KEY NOT NULL,
	"public_uploads" integer DEFAULT 0 NOT NULL
);
-- upload_months.public_uploads: public uploads per UTC month of created_at, kept by
-- triggers on uploads like upload_days, so a month always holds the sum of its days.
INSERT INTO "upload_months" ("month", "public_uploads")
  SELECT substr("created_at", 1, 7), count(*) FROM "uploads" WHERE "is_private" = 0 GROUP BY 1;
