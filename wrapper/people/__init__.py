"""Who a person is and what is kept about them: members, linked identities, data, retention."""
