package dev.lomicontrol.chat;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Chat settings ({@code lomi.chat.*}; shipped defaults in {@code config/application.properties}).
 *
 * @param requestTimeout how long a provider may take for one request, stream included; past it the
 *     send fails (DEADLINE_EXCEEDED, or outcome_unknown when text had already arrived); never retried
 * @param checkpointInterval how often a streaming reply's text is saved at most (its end always is)
 */
@ConfigurationProperties("lomi.chat")
public record ChatProperties(
        @DefaultValue("300s") Duration requestTimeout,
        @DefaultValue("200ms") Duration checkpointInterval) {

    public ChatProperties {
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("lomi.chat.request-timeout must be positive");
        }
        if (checkpointInterval.isNegative()) {
            throw new IllegalArgumentException("lomi.chat.checkpoint-interval must not be negative");
        }
    }

    public static ChatProperties defaults() {
        return new ChatProperties(Duration.ofSeconds(300), Duration.ofMillis(200));
    }
}
