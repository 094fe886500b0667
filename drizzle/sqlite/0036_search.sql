-- uploads_fts: the full text of the uploads' descriptions for search (`text:word`, `text:wor*`,
-- "a phrase"), an FTS5 index over uploads (external content: it keeps only the index, the text
-- stays in uploads), words folded to lower case without diacritics. Kept by the triggers below
-- in the writing statement's transaction, so a search never lags a write; `npm run admin --
-- recount` rebuilds it.
CREATE VIRTUAL TABLE `uploads_fts` USING fts5(`description`, content='uploads', content_rowid='rowid', tokenize = "unicode61 remove_diacritics 2");
--> statement-breakpoint
INSERT INTO `uploads_fts` (`uploads_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `uploads_fts_insert` AFTER INSERT ON `uploads`
BEGIN
  INSERT INTO `uploads_fts` (`rowid`, `description`) VALUES (NEW.`rowid`, NEW.`description`);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_fts_delete` AFTER DELETE ON `uploads`
BEGIN
  INSERT INTO `uploads_fts` (`uploads_fts`, `rowid`, `description`) VALUES ('delete', OLD.`rowid`, OLD.`description`);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_fts_update` AFTER UPDATE OF `description` ON `uploads`
BEGIN
  INSERT INTO `uploads_fts` (`uploads_fts`, `rowid`, `description`) VALUES ('delete', OLD.`rowid`, OLD.`description`);
  INSERT INTO `uploads_fts` (`rowid`, `description`) VALUES (NEW.`rowid`, NEW.`description`);
END;
