package dev.lomicontrol.mcp;

import org.jspecify.annotations.Nullable;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The helper's SLF4J provider: library logs (Netty, Reactor, the transport) go to stderr through
 * {@link Diagnostics}, INFO and up for our own loggers, WARN and up for everyone else.
 * {@link #install()} selects it before anything logs, so Logback never starts in the helper:
 * Logback's service discovery would load Spring Boot's log configurator, and its status messages
 * may go to stdout. Public only because SLF4J instantiates it reflectively.
 */
public final class StderrLogging implements SLF4JServiceProvider {

    private final ILoggerFactory loggers = StderrLogger::new;
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();

    /** Must run before the first use of {@code org.slf4j.LoggerFactory} in this process. */
    static void install() {
        System.setProperty("slf4j.provider", StderrLogging.class.getName());
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggers;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        // nothing to set up
    }

    /** One logger: a fixed threshold by name, formatted by SLF4J, printed on stderr. */
    static final class StderrLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        private final Level threshold;

        StderrLogger(String name) {
            this.name = name;
            this.threshold = name.startsWith("dev.lomicontrol") ? Level.INFO : Level.WARN;
        }

        private boolean enabled(Level level) {
            return level.toInt() >= threshold.toInt();
        }

        @Override
        public boolean isTraceEnabled() {
            return enabled(Level.TRACE);
        }

        @Override
        public boolean isDebugEnabled() {
            return enabled(Level.DEBUG);
        }

        @Override
        public boolean isInfoEnabled() {
            return enabled(Level.INFO);
        }

        @Override
        public boolean isWarnEnabled() {
            return enabled(Level.WARN);
        }

        @Override
        public boolean isErrorEnabled() {
            return enabled(Level.ERROR);
        }

        @Override
        protected @Nullable String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(
                Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
            String text = MessageFormatter.basicArrayFormat(pattern, arguments);
            Diagnostics.log(level.name(), name + " - " + text + (throwable == null ? "" : " (" + throwable + ")"));
        }
    }
}
