CREATE TABLE "upload_revisions" (
	"upload_id" text NOT NULL,
	"revision" integer NOT NULL,
	"actor_id" text,
	"changes" text NOT NULL,
	"reason" text,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	CONSTRAINT "upload_revisions_upload_id_revision_pk" PRIMARY KEY("upload_id","revision")
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "edited_at" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "locked" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_revisions" ADD CONSTRAINT "upload_revisions_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_revisions" ADD CONSTRAINT "upload_revisions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_revisions_actor_idx" ON "upload_revisions" USING btree ("actor_id");--> statement-breakpoint
INSERT INTO upload_revisions (upload_id, revision, actor_id, changes, reason, created_at)
SELECT u.id, 1, u.user_id, (jsonb_build_object('description', jsonb_build_object('from', NULL, 'to', u.description),
    'tagsAdded', COALESCE((SELECT jsonb_agg(t.slug ORDER BY ut.position) FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
      WHERE ut.upload_id = u.id), '[]'::jsonb),
    'tagsRemoved', '[]'::jsonb)
  || CASE WHEN u.upload_type = 'link' THEN jsonb_build_object('externalUrl', jsonb_build_object('from', NULL, 'to', u.external_url)) ELSE '{}'::jsonb END)::text,
  NULL, u.created_at
FROM uploads u;
