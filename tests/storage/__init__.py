"""Tests of storage/: the stores, migrations, the database file, backups, privacy."""
