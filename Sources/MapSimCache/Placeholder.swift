import GRDB
