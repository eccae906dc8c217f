/**
 * The broker's tool dispatch and the life of every durable operation: receipts, waits, cancel and
 * the workspace access every tool adapter resolves through.
 */
@NullMarked
package dev.lomicontrol.operations;

import org.jspecify.annotations.NullMarked;
