package dev.lomicontrol.terminal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A terminal's change listeners (see {@link Terminal#onChange}): one failing does not stop the others. */
final class ChangeListeners {

    private static final Logger log = LoggerFactory.getLogger(ChangeListeners.class);

    private final String terminalId;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    ChangeListeners(String terminalId) {
        this.terminalId = terminalId;
    }

    Runnable add(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    void changed() {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.warn("terminal {}: a change listener failed", terminalId, e);
            }
        }
    }
}
