// The operator console's behaviour: copy buttons, the draft's live preview and the dialog preview.
// Every page works without this script; it only adds convenience. No inline script is needed (CSP).
'use strict';

(function () {
  var announcer = document.getElementById('console-announcer');

  /** Says `text` politely to screen readers (and sighted users see the button's own feedback). */
  function announce(text) {
    if (!announcer) return;
    announcer.textContent = '';
    window.setTimeout(function () { announcer.textContent = text; }, 50);
  }

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute('content') : '';
  }

  // ---- Copy buttons: <button data-copy="#element-id"> -------------------------------------------

  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
    if (!button) return;
    var target = document.querySelector(button.getAttribute('data-copy'));
    if (!target) return;
    var text = 'value' in target ? target.value : target.textContent;
    var selectIt = function (message) {
      if (typeof target.select === 'function') target.select();
      announce(message);
    };
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      selectIt('Selected: press Ctrl+C or Cmd+C to copy');
      return;
    }
    navigator.clipboard.writeText(text).then(
      function () { announce('Copied'); },
      function () { selectIt('Could not copy: the text is selected, press Ctrl+C or Cmd+C'); }
    );
  });

  // ---- Live preview of the draft ---------------------------------------------------------------

  function livePreview(textarea) {
    var frame = document.querySelector(textarea.getAttribute('data-preview-target'));
    if (!frame) return;
    var samples = document.querySelectorAll('[data-sample]');
    var timer = 0;
    var inFlight = null;

    function refresh() {
      var body = new URLSearchParams();
      body.append('content', textarea.value);
      body.append('language', textarea.getAttribute('data-language') || 'en');
      samples.forEach(function (input) {
        body.append('sample.' + input.getAttribute('data-sample'), input.value);
      });
      if (inFlight) inFlight.abort();
      inFlight = new AbortController();
      fetch('/console/preview', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-CSRF-Token': csrfToken() },
        body: body.toString(),
        signal: inFlight.signal
      })
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.text();
        })
        .then(function (html) { frame.setAttribute('srcdoc', html); })
        .catch(function (error) {
          if (error.name !== 'AbortError') announce('The preview could not be updated');
        });
    }

    function schedule() {
      window.clearTimeout(timer);
      timer = window.setTimeout(refresh, 300);
    }

    textarea.addEventListener('input', schedule);
    samples.forEach(function (input) {
      input.addEventListener('input', schedule);
      input.addEventListener('change', schedule);
    });
  }

  document.querySelectorAll('textarea[data-preview-target]').forEach(livePreview);

  // ---- Dialog preview through the SDK --------------------------------------------------------------

  var TEXT_FIELDS = {
    title: 'title',
    accept_button: 'acceptButton',
    decline_button: 'declineButton',
    checkbox_label: 'checkboxLabel',
    version_label: 'versionLabel'
  };

  /** The customization form's values in the SDK's shape (texts for one language). */
  function formCustomizations(form, language) {
    var value = function (name) {
      var field = form.elements.namedItem(name);
      return field && typeof field.value === 'string' ? field.value.trim() : '';
    };
    var mode = form.querySelector('input[name="agreement_mode"]:checked');
    var showDecline = form.elements.namedItem('show_decline');
    var radius = parseInt(value('border_radius'), 10);
    var texts = {};
    Object.keys(TEXT_FIELDS).forEach(function (field) {
      var text = value('texts.' + language + '.' + field);
      if (text) texts[TEXT_FIELDS[field]] = text;
    });
    return {
      agreementMode: mode ? mode.value : undefined,
      theme: {
        primaryColor: value('primary_color') || null,
        backgroundColor: value('background_color') || null,
        textColor: value('text_color') || null,
        borderRadius: isNaN(radius) ? null : radius
      },
      buttons: {
        acceptStyle: value('accept_style') || 'FILLED',
        declineStyle: value('decline_style') || 'FILLED',
        showDecline: !!(showDecline && showDecline.checked)
      },
      logoUrl: value('logo_url') || null,
      texts: texts
    };
  }

  function merge(view, custom) {
    var current = view.customizations || {};
    view.customizations = {
      agreementMode: custom.agreementMode || current.agreementMode,
      theme: Object.assign({}, current.theme, custom.theme),
      buttons: Object.assign({}, current.buttons, custom.buttons),
      logoUrl: custom.logoUrl,
      texts: Object.assign({}, current.texts, custom.texts)
    };
    if (view.agreementMode && custom.agreementMode) view.agreementMode = custom.agreementMode;
    return view;
  }

  var previewButton = document.getElementById('dialog-preview');
  if (previewButton) {
    var status = document.getElementById('dialog-preview-status');
    var say = function (text) { if (status) status.textContent = text; };
    previewButton.addEventListener('click', function () {
      var client = window.ClickwrapClient;
      if (!client || typeof client.preview !== 'function') {
        say('The dialog preview needs the Clickwrap SDK, which is not available on this page.');
        return;
      }
      var select = document.getElementById('dialog-preview-language');
      var language = select ? select.value : 'en';
      var form = document.getElementById('customizations-form');
      var url = '/console/templates/' + encodeURIComponent(previewButton.getAttribute('data-template-id')) +
        '/preview-view?language=' + encodeURIComponent(language);
      say('Loading the preview…');
      fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then(function (response) {
          if (!response.ok) throw new Error(response.status === 404 ? 'no effective version to show' : 'HTTP ' + response.status);
          return response.json();
        })
        .then(function (view) {
          say('');
          var shown = client.preview(form ? merge(view, formCustomizations(form, language)) : view);
          // Closing the preview rejects the SDK's promise; that is not an error here.
          if (shown && typeof shown.catch === 'function') shown.catch(function () {});
        })
        .catch(function (error) {
          say('The preview could not be shown: ' + (error && error.message ? error.message : 'unknown error') + '.');
        });
    });
  }
})();
