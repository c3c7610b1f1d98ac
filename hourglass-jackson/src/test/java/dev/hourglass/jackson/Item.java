package dev.hourglass.jackson;

/** An element of a generic List payload. */
public record Item(String sku, int quantity) {}
