CREATE TABLE "tag_aliases" (
	"slug" text PRIMARY KEY NOT NULL,
	"tag_id" text NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_implications" (
	"tag_id" text NOT NULL,
	"implied_tag_id" text NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	CONSTRAINT "tag_implications_tag_id_implied_tag_id_pk" PRIMARY KEY("tag_id","implied_tag_id")
);
--> statement-breakpoint
ALTER TABLE "tag_aliases" ADD CONSTRAINT "tag_aliases_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_implications" ADD CONSTRAINT "tag_implications_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_implications" ADD CONSTRAINT "tag_implications_implied_tag_id_tags_id_fk" FOREIGN KEY ("implied_tag_id") REFERENCES "public"."tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tag_aliases_tag_idx" ON "tag_aliases" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "tag_implications_implied_idx" ON "tag_implications" USING btree ("implied_tag_id","tag_id");