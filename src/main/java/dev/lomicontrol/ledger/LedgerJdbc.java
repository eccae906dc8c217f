package dev.lomicontrol.ledger;

import dev.lomicontrol.ledger.internal.LedgerDataSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.data.jdbc.core.convert.DataAccessStrategy;
import org.springframework.data.jdbc.core.convert.JdbcConverter;
import org.springframework.data.jdbc.core.convert.JdbcCustomConversions;
import org.springframework.data.jdbc.core.convert.QueryMappingConfiguration;
import org.springframework.data.jdbc.core.convert.RelationResolver;
import org.springframework.data.jdbc.core.mapping.JdbcMappingContext;
import org.springframework.data.jdbc.repository.config.JdbcConfiguration;
import org.springframework.data.jdbc.repository.support.JdbcRepositoryFactory;
import org.springframework.data.relational.RelationalManagedTypes;
import org.springframework.data.relational.core.mapping.DefaultNamingStrategy;
import org.springframework.data.repository.Repository;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Spring Data JDBC over the ledger's store (ADR 0012): aggregates ({@code @Table} records) and
 * repositories for the state that is shaped like aggregates (settings sections, episodes, chat).
 * Everything runs on {@link LedgerDataSource}: called inside {@link Ledger#write} (on the thread
 * that runs the single writer's transaction) a repository reads and writes in that work's savepoint and its changes commit
 * with the writer's group commit, together with whatever else the work did; called anywhere else
 * it reads from a {@code query_only} reader, and a write there fails. So the store keeps exactly
 * one writer. No Spring context is needed: the ledger builds this itself, so plain tests and the
 * broker use the same repositories.
 */
public final class LedgerJdbc {

    private final DataSource dataSource;
    private final JdbcAggregateTemplate aggregates;
    private final JdbcRepositoryFactory factory;
    private final Map<Class<?>, Object> repositories = new ConcurrentHashMap<>();

    LedgerJdbc(LedgerDataSource dataSource) {
        this.dataSource = dataSource;
        NamedParameterJdbcTemplate jdbc = new NamedParameterJdbcTemplate(dataSource);
        JdbcCustomConversions conversions =
                JdbcConfiguration.createCustomConversions(SqliteDialect.INSTANCE, List.of());
        JdbcMappingContext context = JdbcConfiguration.createMappingContext(
                RelationalManagedTypes.empty(), conversions, DefaultNamingStrategy.INSTANCE);
        AtomicReference<DataAccessStrategy> strategy = new AtomicReference<>();
        RelationResolver relations =
                (identifier, path) -> Objects.requireNonNull(strategy.get(), "the strategy is set before any query")
                        .findAllByPath(identifier, path);
        JdbcConverter converter =
                JdbcConfiguration.createConverter(context, jdbc, relations, conversions, SqliteDialect.INSTANCE);
        DataAccessStrategy created = JdbcConfiguration.createDataAccessStrategy(
                jdbc, converter, QueryMappingConfiguration.EMPTY, SqliteDialect.INSTANCE);
        strategy.set(created);
        this.aggregates = new JdbcAggregateTemplate(event -> {}, context, converter, created);
        this.factory = new JdbcRepositoryFactory(aggregates);
        // the repositories are package-private interfaces of their modules: their proxies must come from our class
        // loader
        this.factory.setBeanClassLoader(LedgerJdbc.class.getClassLoader());
    }

    /** The repository of {@code type} (made once, shared; thread-safe). */
    public <R extends Repository<?, ?>> R repository(Class<R> type) {
        return type.cast(repositories.computeIfAbsent(type, factory::getRepository));
    }

    /**
     * The aggregate template, for what a repository does not say: {@code insert} of an aggregate
     * whose id the caller chose (a repository's {@code save} would take it for an update).
     */
    public JdbcAggregateOperations aggregates() {
        return aggregates;
    }

    /** The store as a {@link DataSource}: the writer's connection inside {@link Ledger#write}, a reader elsewhere. */
    public DataSource dataSource() {
        return dataSource;
    }
}
