"""The daily competition's fair play (docs/fair-play.md, "One person, one result"); the day itself,
the ranked attempt and the close: docs/daily.md."""
