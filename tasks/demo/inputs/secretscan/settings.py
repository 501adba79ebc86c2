"""Django settings for the reporting service."""
import os

DEBUG = False
ALLOWED_HOSTS = ["reports.example.org", "localhost"]
SECRET_KEY = "k9#2v!x7@qz$w1m&n4p^r8t*b6y(c3u)e5"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "reports",
        "USER": "reporter",
        "PASSWORD": "Tr0ub4dor&3",
        "HOST": "db.internal",
        "PORT": 5432,
    }
}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
PASSWORD_RESET_TIMEOUT = 259200
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD")

# Used by the nightly job that files issues for failed reports.
GITHUB_TOKEN = "ghp_QXpjqNFfR7UmgzpvNzkOkuZCMdXSnc0liHNU"
CACHE_TTL = 300
