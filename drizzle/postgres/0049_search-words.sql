CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"public_uploads" integer DEFAULT 0 NOT NULL
);
