package dev.lomicontrol.chat;

import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One model connection as stored (table {@code chat_connection}), a Spring Data JDBC aggregate: the
 * key's variable name or file path, never the key. Added and removed, never changed, so it has no
 * revision. {@code createdAt} is epoch milliseconds.
 */
@Table("chat_connection")
record ConnectionRecord(
        @Id String id,
        String kind,
        String baseUrl,
        String model,
        @Nullable String apiKeyEnv,
        @Nullable String apiKeyFile,
        int maxOutputTokens,
        long createdAt) {

    static ConnectionRecord of(ModelConnection connection, long now) {
        return new ConnectionRecord(
                connection.id(),
                connection.kind().wire(),
                connection.baseUrl(),
                connection.model(),
                connection.apiKeyEnv().orElse(null),
                connection.apiKeyFile().orElse(null),
                connection.maxOutputTokens(),
                now);
    }

    ModelConnection connection() {
        return new ModelConnection(
                id,
                ModelConnection.Kind.fromWire(kind),
                baseUrl,
                model,
                Optional.ofNullable(apiKeyEnv),
                Optional.ofNullable(apiKeyFile),
                maxOutputTokens);
    }
}
