"""A blog editor's session with Python's standard xmlrpc.client, printed as JSON for the test to check.

Usage: metaweblog_client.py ENDPOINT USERNAME TOKEN
"""
import base64
import datetime
import json
import sys
import time
import urllib.request
import xmlrpc.client

endpoint, username, token = sys.argv[1:4]
server = xmlrpc.client.ServerProxy(endpoint, use_builtin_types=True)
out = {}

blogs = server.blogger.getUsersBlogs("python-app-key", username, token)
out["blogs"] = blogs
blog_id = blogs[0]["blogid"]
out["methods"] = server.system.listMethods()

post_id = server.metaWeblog.newPost(
    blog_id, username, token,
    {"title": "From Python", "description": "Written in <em>Python</em>.", "categories": ["Snakes"]},
    True,
)
out["post_id"] = post_id
post = server.metaWeblog.getPost(str(post_id), username, token)
out["post"] = {k: post[k] for k in ("postid", "id", "title", "description", "categories", "post_status", "permalink")}
out["post_date_type"] = type(post["dateCreated"]).__name__

server.metaWeblog.editPost(post_id, username, token, {"description": "Edited in Python."}, True)
out["edited"] = server.metaWeblog.getPost(post_id, username, token)["description"]
out["recent"] = [p["postid"] for p in server.metaWeblog.getRecentPosts(blog_id, username, token, 10)]
out["categories"] = [c["categoryName"] for c in server.metaWeblog.getCategories(blog_id, username, token)]

png = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
media = server.metaWeblog.newMediaObject(
    blog_id, username, token, {"name": "py dot.png", "type": "image/png", "bits": xmlrpc.client.Binary(png)}
)
with urllib.request.urlopen(media["url"]) as response:
    out["media"] = {
        "url": media["url"],
        "same_bytes": response.read() == png,
        "type": response.headers["Content-Type"],
        "nosniff": response.headers["X-Content-Type-Options"],
    }

page_id = server.service.newPage(blog_id, username, token, {"title": "Python Page", "description": "hi", "is_navigation": True})
server.service.editPage(page_id, username, token, {"title": "Python Page, edited"})
out["pages"] = [(p["id"], p["title"], p["is_navigation"]) for p in server.service.getPages(blog_id, username, token)]
out["page_deleted"] = server.service.deletePage(page_id, username, token)

due = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) + datetime.timedelta(seconds=2)
scheduled = server.metaWeblog.newPost(
    blog_id, username, token, {"title": "Python later", "description": "soon", "dateCreated": xmlrpc.client.DateTime(due)}, True
)
out["scheduled_before"] = server.metaWeblog.getPost(scheduled, username, token)["post_status"]
status = out["scheduled_before"]
deadline = time.time() + 15
while status != "published" and time.time() < deadline:
    time.sleep(0.25)
    status = server.metaWeblog.getPost(scheduled, username, token)["post_status"]
out["scheduled_after"] = status

out["deleted"] = server.metaWeblog.deletePost(post_id, username, token)
try:
    server.metaWeblog.getPost(post_id, username, token)
    out["after_delete"] = "found"
except xmlrpc.client.Fault as fault:
    out["after_delete"] = [fault.faultCode, fault.faultString]

try:
    server.metaWeblog.getPost(post_id, username, "wrong-token")
except xmlrpc.client.Fault as fault:
    out["wrong_token"] = fault.faultCode

print(json.dumps(out))
