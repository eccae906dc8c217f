/**
 * The operation tools' broker handlers ({@code lomi_operation_get}, {@code lomi_operation_cancel},
 * {@code lomi_events_read}) over the operations engine and the ledger.
 */
@NullMarked
package dev.lomicontrol.operations.tools;

import org.jspecify.annotations.NullMarked;
