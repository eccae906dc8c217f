package dev.lomicontrol.broker;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import dev.lomicontrol.core.Visible;

/**
 * The {@code %visibleMsg} of the broker's log patterns (stderr in {@code logback.xml}, the file in
 * {@link BrokerLogFile}): the formatted message with every control character shown escaped
 * ({@link Visible#line}), newline included. Log messages carry agent-chosen text (decision
 * summaries, client labels, refused URLs); stderr is the admin's console terminal and the file is
 * read with {@code tail -f}, so a raw ESC, CR, C1 or bidi control must not reach them, and neither
 * may a newline that would start a fake log line. Stack traces are untouched: they come from
 * {@code %ex}, not from the message.
 */
public final class VisibleMessageConverter extends MessageConverter {

    /** The conversion word the patterns use. */
    public static final String WORD = "visibleMsg";

    @Override
    public String convert(ILoggingEvent event) {
        return Visible.line(super.convert(event));
    }

    /** A started layout of {@code pattern} in {@code context} that knows {@code %visibleMsg} whatever the configuration. */
    static PatternLayout layout(Context context, String pattern) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put(WORD, VisibleMessageConverter::new);
        layout.setPattern(pattern);
        layout.start();
        return layout;
    }
}
