"""Instants and repeat rules said as a person reads them."""
