package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Security finding N2 at the logging layer: {@code %visibleMsg} shows every control character of a
 * message escaped (so no logger can write agent text raw to the admin's terminal or the log file),
 * and both of the broker's patterns use it.
 */
class VisibleMessageConverterTests {

    static final String HOSTILE = "open x\u001b[2K\r\u001b]52;c;cm0gLXJmIH4=\u0007\u009b1A\u202eevil\u2066"
            + "\n2026-12-06T06:00:00.000Z WARN  [main] d.l.broker.AdminAttention - fake\u007f\tend";
    static final String SHOWN = "open x\\u001b[2K\\r\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u009b1A\\u202eevil\\u2066"
            + "\\n2026-12-06T06:00:00.000Z WARN  [main] d.l.broker.AdminAttention - fake\\u007f\tend";

    final LoggerContext context = new LoggerContext();

    @Test
    void everyControlCharacterOfTheMessageIsShownEscapedWhileTheStackTraceStillSpansLines() {
        String line = VisibleMessageConverter.layout(context, "%visibleMsg%n%ex")
                .doLayout(event("{} waits", HOSTILE, new IllegalStateException("boom")));

        assertThat(line).startsWith(SHOWN + " waits" + System.lineSeparator());
        assertThat(line.lines().skip(1)).first().isEqualTo("java.lang.IllegalStateException: boom");
        assertThat(line.lines()).anySatisfy(frame -> assertThat(frame).startsWith("\tat "));
        assertThat(line.chars().filter(c -> (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)))
                .isEmpty();
    }

    @Test
    void plainMessagesPassUnchanged() {
        String line = VisibleMessageConverter.layout(context, "%visibleMsg")
                .doLayout(event("ledger open at {} (ünïcode, tab\there)", "/tmp/x", null));

        assertThat(line).isEqualTo("ledger open at /tmp/x (ünïcode, tab\there)");
    }

    @Test
    void theStderrPatternOfLogbackXmlAndTheLogFilesPatternBothEscapeTheMessage() throws Exception {
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(Objects.requireNonNull(getClass().getResource("/logback.xml")));
        @SuppressWarnings("unchecked")
        ConsoleAppender<ILoggingEvent> stderr =
                (ConsoleAppender<ILoggingEvent>) context.getLogger("ROOT").getAppender("STDERR");
        Encoder<ILoggingEvent> encoder = stderr.getEncoder();

        String logged = new String(encoder.encode(event("{}", HOSTILE, null)), StandardCharsets.UTF_8);
        String filed =
                VisibleMessageConverter.layout(context, BrokerLogFile.PATTERN).doLayout(event("{}", HOSTILE, null));

        assertThat(logged).endsWith(" - " + SHOWN + System.lineSeparator());
        assertThat(filed).endsWith(" - " + SHOWN + System.lineSeparator());
        assertThat(filed.substring(0, filed.indexOf(" - ")))
                .as("the same pattern up to the message")
                .hasSameSizeAs(logged.substring(0, logged.indexOf(" - ")));
        stderr.stop();
    }

    private LoggingEvent event(String format, String argument, Throwable thrown) {
        return new LoggingEvent(
                getClass().getName(),
                context.getLogger("dev.lomicontrol.broker.AdminAttention"),
                Level.WARN,
                format,
                thrown,
                new Object[] {argument});
    }
}
