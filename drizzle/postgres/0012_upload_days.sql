CREATE TABLE "upload_days" (
	"day" text PRIMARY KEY NOT NULL,
	"public_uploads" integer DEFAULT 0 NOT NULL
);
