package dev.lomicontrol.tools;

/** An input that names the layout revision ({@code domainRevision}) its change is based on; stale → REVISION_CONFLICT. */
public interface LayoutBased {

    Decimal expectedRevision();
}
