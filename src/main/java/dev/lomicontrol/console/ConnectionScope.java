package dev.lomicontrol.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.shell.core.command.CommandContext;

/**
 * What a command keeps for as long as one admin connection lasts (the admin's hold on a terminal's
 * input): resources under a name, closed when the command lets them go or, at the latest, when the
 * connection ends — a console that exits, crashes or is killed closes its socket, and {@link
 * AdminSession} then closes its scope. Commands run outside an admin connection have no scope.
 */
final class ConnectionScope implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConnectionScope.class);

    private final String name;
    private final Map<String, AutoCloseable> resources = new LinkedHashMap<>();
    private boolean closed;

    ConnectionScope(String name) {
        this.name = name;
    }

    /** The scope of the admin connection {@code context} runs for, if it runs for one. */
    static Optional<ConnectionScope> of(CommandContext context) {
        return context.inputReader() instanceof CallerInputReader reader ? reader.scope() : Optional.empty();
    }

    /** How the broker names this connection to whoever it affects (e.g. "admin console connection 3"). */
    String name() {
        return name;
    }

    /** Keeps {@code resource} under {@code key} until {@link #remove} or the connection's end; false (and closes it) once the connection ended. */
    boolean put(String key, AutoCloseable resource) {
        synchronized (this) {
            if (!closed) {
                AutoCloseable earlier = resources.put(key, resource);
                if (earlier != null) {
                    quietly(earlier);
                }
                return true;
            }
        }
        quietly(resource);
        return false;
    }

    synchronized Optional<AutoCloseable> get(String key) {
        return Optional.ofNullable(resources.get(key));
    }

    /** Lets go of the resource under {@code key} (closing it); whether there was one. */
    boolean remove(String key) {
        AutoCloseable resource;
        synchronized (this) {
            resource = resources.remove(key);
        }
        if (resource != null) {
            quietly(resource);
        }
        return resource != null;
    }

    /** Closes everything still kept, newest first. */
    @Override
    public void close() {
        List<AutoCloseable> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(resources.values());
            resources.clear();
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            quietly(all.get(i));
        }
    }

    private static void quietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            log.warn("admin connection: releasing {} failed", resource, e);
        }
    }
}
