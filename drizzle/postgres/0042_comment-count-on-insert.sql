-- uploads.comments: a new comment adds one when it counts (not deleted, author not
-- shadow-banned) instead of recounting the upload's comments, which grew with every
-- comment on it. A delete or an update still recounts: an author set to nobody or a
-- shadow ban is rare, and the author's row may already be gone. The upload's row lock
-- orders concurrent additions.
CREATE OR REPLACE FUNCTION "comments_count"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text := CASE WHEN TG_OP = 'DELETE' THEN OLD."upload_id" ELSE NEW."upload_id" END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."deleted" = 0 AND NOT EXISTS (SELECT 1 FROM "users" us WHERE us."id" = NEW."author_id" AND us."shadow_banned" = 1) THEN
      UPDATE "uploads" SET "comments" = "comments" + 1 WHERE "id" = target;
    END IF;
    RETURN NULL;
  END IF;
  UPDATE "uploads" SET "comments" = (SELECT count(*) FROM "comments" c WHERE c."upload_id" = target AND c."deleted" = 0
    AND NOT EXISTS (SELECT 1 FROM "users" us WHERE us."id" = c."author_id" AND us."shadow_banned" = 1)) WHERE "id" = target;
  RETURN NULL;
END $$;
