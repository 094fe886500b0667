CREATE TABLE "tag_pairs" (
	"first_tag_id" text NOT NULL,
	"second_tag_id" text NOT NULL,
	"public_uploads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tag_pairs_first_tag_id_second_tag_id_pk" PRIMARY KEY("first_tag_id","second_tag_id")
);
