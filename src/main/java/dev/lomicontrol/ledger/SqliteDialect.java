package dev.lomicontrol.ledger;

import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.relational.core.dialect.AbstractDialect;
import org.springframework.data.relational.core.dialect.LimitClause;
import org.springframework.data.relational.core.dialect.LockClause;
import org.springframework.data.relational.core.sql.LockOptions;

/**
 * Spring Data JDBC has no SQLite dialect (upstream declined one). SQLite takes
 * {@code LIMIT n OFFSET m} after ORDER BY and has no row locks: mutual exclusion comes from the
 * ledger's single {@code BEGIN IMMEDIATE} writer, so the lock clause renders nothing.
 */
public final class SqliteDialect extends AbstractDialect implements JdbcDialect {

    public static final SqliteDialect INSTANCE = new SqliteDialect();

    private static final LimitClause LIMIT = new LimitClause() {
        @Override
        public String getLimit(long limit) {
            return "LIMIT " + limit;
        }

        @Override
        public String getOffset(long offset) {
            return "LIMIT -1 OFFSET " + offset;
        }

        @Override
        public String getLimitOffset(long limit, long offset) {
            return "LIMIT " + limit + " OFFSET " + offset;
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    private static final LockClause NO_LOCK = new LockClause() {
        @Override
        public String getLock(LockOptions options) {
            return "";
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    private SqliteDialect() {}

    @Override
    public LimitClause limit() {
        return LIMIT;
    }

    @Override
    public LockClause lock() {
        return NO_LOCK;
    }
}
