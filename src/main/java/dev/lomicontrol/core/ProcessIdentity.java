package dev.lomicontrol.core;

import com.sun.security.auth.module.UnixSystem;

/** The effective user of this process. */
public final class ProcessIdentity {

    private static final long UID = new UnixSystem().getUid();

    private ProcessIdentity() {}

    public static long uid() {
        return UID;
    }
}
