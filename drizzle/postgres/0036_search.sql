-- search_text: a description as full text reads it, lower case, the diacritics of Latin letters
-- taken off (the unaccent extension needs a superuser to install; this needs nothing). IMMUTABLE,
-- so a generated column and its index may use it.
CREATE FUNCTION "search_text"(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT translate(lower($1), 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžØøĐđŁłĦħŦŧ', 'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzooddllhhtt')
$$;
--> statement-breakpoint
-- uploads.search_vector: the words of the description for search (`text:word`, `text:wor*`,
-- "a phrase"), generated from it in the writing statement, so a search never lags a write; the
-- GIN index holds the public uploads', as every search reads only those.
ALTER TABLE "uploads" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "search_text"("description"))) STORED;
--> statement-breakpoint
CREATE INDEX "uploads_public_search_idx" ON "uploads" USING gin ("search_vector") WHERE "is_private" = 0;
