-- search_words.public_uploads: how many public uploads have the word in their description,
-- so a search for one common word reads its total instead of counting every upload that has
-- it (docs/database.md, "Kept counts"). The words are the full-text index's own: FTS3's
-- tokenizer table with the options of uploads_fts (unicode61, diacritics removed), which
-- splits and folds every code point as FTS5's unicode61 does, so a word counted here is a
-- word `text:` matches. Each upload counts a word once, however often its description says it.
-- A count that reaches 0 keeps its row.
CREATE VIRTUAL TABLE `search_word_tokens` USING fts3tokenize('unicode61', 'remove_diacritics=2');
--> statement-breakpoint
INSERT INTO `search_words` (`word`, `public_uploads`)
  SELECT t.`token`, count(DISTINCT u.`rowid`) FROM `uploads` u JOIN `search_word_tokens` t ON t.`input` = u.`description`
  WHERE u.`is_private` = 0 GROUP BY t.`token`;
--> statement-breakpoint
CREATE TRIGGER `uploads_search_words_insert` AFTER INSERT ON `uploads` WHEN NEW.`is_private` = 0
BEGIN
  INSERT INTO `search_words` (`word`, `public_uploads`)
    SELECT DISTINCT `token`, 1 FROM `search_word_tokens` WHERE `input` = NEW.`description`
    ON CONFLICT (`word`) DO UPDATE SET `public_uploads` = `public_uploads` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_search_words_update` AFTER UPDATE OF `description`, `is_private` ON `uploads`
  WHEN (OLD.`is_private` = 0 OR NEW.`is_private` = 0)
    AND (OLD.`description` IS NOT NEW.`description` OR OLD.`is_private` IS NOT NEW.`is_private`)
BEGIN
  UPDATE `search_words` SET `public_uploads` = `public_uploads` - 1
    WHERE OLD.`is_private` = 0 AND `word` IN (SELECT `token` FROM `search_word_tokens` WHERE `input` = OLD.`description`);
  INSERT INTO `search_words` (`word`, `public_uploads`)
    SELECT DISTINCT `token`, 1 FROM `search_word_tokens` WHERE `input` = NEW.`description` AND NEW.`is_private` = 0
    ON CONFLICT (`word`) DO UPDATE SET `public_uploads` = `public_uploads` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_search_words_delete` AFTER DELETE ON `uploads` WHEN OLD.`is_private` = 0
BEGIN
  UPDATE `search_words` SET `public_uploads` = `public_uploads` - 1
    WHERE `word` IN (SELECT `token` FROM `search_word_tokens` WHERE `input` = OLD.`description`);
END;
